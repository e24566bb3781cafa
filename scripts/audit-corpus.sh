#!/usr/bin/env bash
# Assembles the public document set the audit is measured on (issue 15, "Acceptance"), outside the
# repository, from snapshots of public repositories (git directories) fetched beforehand:
#
#   source (repository)                          formats            licence
#   OpenLogicProject/OpenLogic                   LaTeX (.tex)       CC BY 4.0
#   d2l-ai/d2l-en (Dive into Deep Learning)      Markdown (.md)     CC BY-SA 4.0 (text), MIT-0 (code)
#   jakevdp/PythonDataScienceHandbook            Jupyter (.ipynb)   text CC BY-NC-ND 3.0, code MIT
#   mathjax/MathJax-demos-web                    HTML (.html)       Apache-2.0
#   IDPF/epub3-samples (30/*)                    XHTML, and EPUB 3  CC BY-SA 3.0 / each sample's own
#                                                zips made here from each sample folder
#
# Usage: scripts/audit-corpus.sh OUT GITDIR…   (each GITDIR a bare or normal git directory of one of the
# repositories above; its HEAD is exported). Nothing from the set is committed; only small excerpts are
# kept as test fixtures (Tests/MathAloudAuditTests/Fixtures/README.md names them and their licences).
set -euo pipefail
out="${1:?usage: audit-corpus.sh OUT GITDIR…}"; shift
mkdir -p "$out"
for git in "$@"; do
  name="$(basename "$(dirname "$git")")"
  [[ "$(basename "$git")" == repo ]] || name="$(basename "$git" .git)"
  dest="$out/$name"
  rm -rf "$dest"; mkdir -p "$dest"
  # Export HEAD's files; blobs the snapshot lacks (files of 4 MiB and more) are skipped.
  python3 - "$git" "$dest" <<'PY'
import os, subprocess, sys
git, dest = sys.argv[1], sys.argv[2]
tree = subprocess.run(["git", "--git-dir", git, "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True).stdout
entries = []
for rec in tree.split(b"\0"):
    if not rec: continue
    meta, path = rec.split(b"\t", 1)
    mode, kind, oid = meta.split()
    if kind == b"blob" and mode != b"120000": entries.append((oid, path.decode("utf-8", "replace")))
p = subprocess.Popen(["git", "--git-dir", git, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
import threading
def feed():
    p.stdin.write(b"".join(oid + b"\n" for oid, _ in entries)); p.stdin.close()
threading.Thread(target=feed, daemon=True).start()   # write while reading, or both pipes fill up
skipped = 0
for oid, path in entries:
    header = p.stdout.readline().split()
    if len(header) < 3 or header[1] == b"missing":
        skipped += 1; continue
    data = p.stdout.read(int(header[2])); p.stdout.read(1)
    target = os.path.join(dest, path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f: f.write(data)
p.wait()
if skipped: print(f"audit-corpus: {os.path.basename(dest)}: {skipped} large files not in the snapshot, skipped")
PY
  echo "audit-corpus: $name: $(find "$dest" -type f | wc -l) files"
done
# EPUB 3 containers from the unpacked samples: mimetype first and stored, the rest deflated (OCF §4.2).
if compgen -G "$out/*epub3-samples*/30" >/dev/null; then
  samples="$(echo "$out"/*epub3-samples*/30)"
  mkdir -p "$out/epub"
  python3 - "$samples" "$out/epub" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    root = os.path.join(src, name)
    if not os.path.isfile(os.path.join(root, "mimetype")):
        continue
    with zipfile.ZipFile(os.path.join(dst, name + ".epub"), "w") as z:
        z.write(os.path.join(root, "mimetype"), "mimetype", compress_type=zipfile.ZIP_STORED)
        for base, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                path = os.path.join(base, f)
                arc = os.path.relpath(path, root)
                if arc != "mimetype":
                    z.write(path, arc, compress_type=zipfile.ZIP_DEFLATED)
print("audit-corpus: epub:", len(os.listdir(dst)), "EPUB files")
PY
fi
du -sh "$out"
