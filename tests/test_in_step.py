"""tools/in_step.py, the check `make test` starts with: a command that writes a folder's files again with the same bytes
passes and leaves their times as they were (so `make` does not install again, nor Python compile again); a command that
changes a file's bytes fails, naming it."""
import os, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

def in_step(folder, code:str):
    return subprocess.run([sys.executable, str(ROOT/'tools'/'in_step.py'), str(folder), 'the files are in step', sys.executable, '-c', code],
                          capture_output=True, text=True)

def test_the_same_bytes_written_again_pass_and_keep_their_time(tmp_path):
    f = tmp_path/'m.py'; f.write_text('x = 1\n'); os.utime(f, ns=(10**18, 10**18))
    r = in_step(tmp_path, f"open({str(f)!r}, 'w').write('x = 1\\n')")
    assert r.returncode == 0 and 'ok: the files are in step' in r.stdout, r.stdout + r.stderr
    assert f.stat().st_mtime_ns == 10**18

def test_changed_bytes_fail_and_are_named(tmp_path):
    f = tmp_path/'m.py'; f.write_text('x = 1\n')
    r = in_step(tmp_path, f"open({str(f)!r}, 'w').write('x = 2\\n')")
    assert r.returncode == 1 and 'FAILED: the files are in step' in r.stdout and 'm.py' in r.stdout, r.stdout
