"""The learner's own copy of the notebooks, for `make tutor`: play there, and the project's notebooks stay as they are.

    python tools/learner_copy.py [SOURCE [COPY]]     # default: nbs -> learn

JupyterLab saves a notebook as it is played (outputs, widget state, the learner's own cells). Played in `nbs/`, that
would change the project's source, and `make test` would then refuse the unclean notebooks. So `make tutor` serves a
copy in `learn/` (git ignores it), with the same folders, so every link between notebooks still works.

Run again (each `make tutor` does), it brings the copy up to date without losing the learner's work:
- a notebook the copy does not have yet is copied;
- a notebook the learner has not changed since it was copied is replaced by the project's newer version;
- a notebook the learner has changed is kept as it is, and the line printed says how to get the new one.
What was copied is remembered in `COPY/.copied.json` (each file's SHA-256 as copied).
"""
import hashlib, json, shutil, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = '.copied.json'

def digest(path:Path) -> str: return hashlib.sha256(path.read_bytes()).hexdigest()

def notebooks(source:Path) -> list:
    "The notebooks under `source` a learner opens (relative paths), checkpoints and hidden folders left out."
    return sorted(p.relative_to(source) for p in source.rglob('*.ipynb')
                  if not any(part.startswith('.') for part in p.relative_to(source).parts))

def sync(source:Path, copy:Path) -> dict:
    "Bring `copy` up to date with `source` (see the module's docstring): {'copied': [...], 'updated': [...], 'kept': [...]}."
    copy.mkdir(parents=True, exist_ok=True)
    try: known = json.loads((copy / MANIFEST).read_text(encoding='utf-8'))
    except (OSError, ValueError): known = {}
    done = {'copied': [], 'updated': [], 'kept': []}
    for rel in notebooks(source):
        src, dst, key = source / rel, copy / rel, rel.as_posix()
        new = digest(src)
        if not dst.exists(): what = 'copied'
        elif digest(dst) == new: known[key] = new; continue
        elif known.get(key) == digest(dst): what = 'updated'   # the learner has not touched it: take the project's
        else: done['kept'].append(key); continue               # the learner's own work: never overwritten
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        known[key] = new
        done[what].append(key)
    (copy / MANIFEST).write_text(json.dumps(known, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    return done

def report(done:dict, copy:Path) -> str:
    "What `sync` did, in a line or two for the learner."
    shown = copy.relative_to(ROOT) if copy.is_relative_to(ROOT) else copy
    words = [f"Your notebooks are in {shown}/ (your play there never changes the project's notebooks)."]
    news = [f"{len(done[k])} {k}" for k in ('copied', 'updated') if done[k]]
    if news: words.append(', '.join(news).capitalize() + '.')
    if done['kept']:
        words.append(f"Kept your changed {', '.join(done['kept'])}: the project has a newer version; "
                     f"delete or rename yours to get it at the next start.")
    return ' '.join(words)

def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) > 2: sys.exit("usage: python tools/learner_copy.py [SOURCE [COPY]]")
    source = Path(argv[0]) if argv else ROOT / 'nbs'
    copy = Path(argv[1]) if len(argv) > 1 else ROOT / 'learn'
    if not source.is_dir(): sys.exit(f"learner_copy: there is no folder {source}")
    print(report(sync(source.resolve(), copy.resolve()), copy.resolve()))

if __name__ == '__main__': main()
