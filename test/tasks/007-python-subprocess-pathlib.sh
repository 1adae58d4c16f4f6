# Python automation: pathlib to walk a tree, subprocess to call shell tools, csv module output.
mkdir -p docs/a docs/b
printf 'alpha\nbeta\n' > docs/a/one.txt
printf 'gamma\n' > docs/b/two.txt
printf 'ignored' > docs/b/skip.bin
cat > inventory.py <<'PY'
import csv, subprocess, sys
from pathlib import Path
rows = []
for p in sorted(Path("docs").rglob("*.txt")):
    lines = int(subprocess.run(["wc", "-l"], stdin=open(p), capture_output=True, text=True).stdout)
    rows.append((p.as_posix(), p.stat().st_size, lines))
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(["path", "bytes", "lines"])
w.writerows(rows)
r = subprocess.run("exit 3", shell=True)
print("shell status", r.returncode)
PY
python3 inventory.py | tee inventory.csv | column -s, -t
awk -F, 'NR>1 { s += $2 } END { print s }' inventory.csv
