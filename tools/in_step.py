"""Run a command that should change nothing under a folder, and fail if it did.

Used by `make test` to check that the exported modules match the notebooks (`nbdev-export`) and that
the notebooks are clean (`nbdev-clean`): works the same in a fresh clone and in a working tree.
nbdev writes every file again, the same bytes included (and `pyproject.toml` too): a file whose bytes did not change
gets its time back, so that a check changes nothing for `make` either (the install is redone when `pyproject.toml` is
newer than it) nor for Python's compiled modules (they are compiled again when their source is newer).
"""
import hashlib, os, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

def snapshot(folder) -> dict:
    "{path: (sha256 of its bytes, its modification time in ns)} of every file under `folder`, and of the project's pyproject.toml."
    files = [p for p in sorted(pathlib.Path(folder).rglob('*')) if p.is_file() and '__pycache__' not in p.parts and '.ipynb_checkpoints' not in p.parts]
    return {p: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in [*files, ROOT/'pyproject.toml'] if p.is_file()}

def main():
    folder, what, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
    before = snapshot(folder)
    subprocess.run(cmd, check=True)
    after = snapshot(folder)
    for p, (digest, mtime) in before.items():  # written again with the same bytes: its time back
        if p in after and after[p][0] == digest and after[p][1] != mtime: os.utime(p, ns=(p.stat().st_atime_ns, mtime))
    changed = sorted(str(p) for p in set(before) | set(after) if before.get(p, (None,))[0] != after.get(p, (None,))[0])
    if changed:
        print(f"FAILED: {what}: `{' '.join(cmd)}` changed {len(changed)} file(s): {', '.join(changed[:10])}")
        print("They are now fixed in your tree: review and commit them.")
        sys.exit(1)
    print(f"ok: {what}")

if __name__ == '__main__': main()
