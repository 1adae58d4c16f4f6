# Python csv and statistics modules summarise a file made with the shell; results cross-checked with awk.
printf 'city,temp\n' > temps.csv
for t in 12.5 14 9.5 18 15.5 11; do printf 'Oslo,%s\n' "$t"; done >> temps.csv
for t in 21 23.5 19 25; do printf 'Málaga,%s\n' "$t"; done >> temps.csv
python3 - <<'PY'
import csv, statistics
from collections import defaultdict
by = defaultdict(list)
with open("temps.csv", newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        by[row["city"]].append(float(row["temp"]))
for city in sorted(by):
    xs = by[city]
    print(f"{city}: n={len(xs)} mean={statistics.mean(xs):.2f} median={statistics.median(xs)} stdev={statistics.stdev(xs):.3f}")
PY
awk -F, 'NR > 1 { s[$1] += $2; n[$1]++ } END { for (c in s) printf "%s %.2f\n", c, s[c] / n[c] }' temps.csv | sort
