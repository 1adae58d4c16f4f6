# Write a Python script that reads JSON, aggregates, and writes a report; check it with jq.
cat > orders.json <<'J'
[{"id":1,"customer":"ana","total":12.5},{"id":2,"customer":"bo","total":3},
 {"id":3,"customer":"ana","total":7.25},{"id":4,"customer":"zoë","total":10}]
J
cat > report.py <<'PY'
import json, sys
orders = json.load(open(sys.argv[1], encoding="utf-8"))
by = {}
for o in orders:
    by[o["customer"]] = by.get(o["customer"], 0) + o["total"]
out = [{"customer": c, "total": t} for c, t in sorted(by.items(), key=lambda kv: -kv[1])]
json.dump(out, open("report.json", "w", encoding="utf-8"), ensure_ascii=False, indent=2)
print(f"{len(out)} customers")
PY
python3 report.py orders.json
jq -r '.[] | "\(.customer)\t\(.total)"' report.json
jq '[.[].total] | add' report.json
