"""Run a command that should change nothing under a folder, and fail if it did.

Used by `make test` to check that the exported modules match the notebooks (`nbdev-export`) and that
the notebooks are clean (`nbdev-clean`): works the same in a fresh clone and in a working tree.
"""
import hashlib, pathlib, subprocess, sys

def snapshot(folder):
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(pathlib.Path(folder).rglob('*'))
            if p.is_file() and '__pycache__' not in p.parts and '.ipynb_checkpoints' not in p.parts}

def main():
    folder, what, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
    before = snapshot(folder)
    subprocess.run(cmd, check=True)
    after = snapshot(folder)
    changed = sorted(str(p) for p in set(before) | set(after) if before.get(p) != after.get(p))
    if changed:
        print(f"FAILED: {what}: `{' '.join(cmd)}` changed {len(changed)} file(s): {', '.join(changed[:10])}")
        print("They are now fixed in your tree: review and commit them.")
        sys.exit(1)
    print(f"ok: {what}")

if __name__ == '__main__': main()
