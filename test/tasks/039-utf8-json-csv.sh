# UTF-8 through jq, python and sqlite: the bytes stay the same end to end.
printf '{"city":"Zürich","note":"naïve — 東京"}\n' > in.json
jq -r '.city, .note' in.json
jq -c '{c: (.city | ascii_downcase), n: (.note | length)}' in.json
python3 -c 'import json; d = json.load(open("in.json", encoding="utf-8")); print(d["city"].upper(), len(d["note"]))'
sqlite3 :memory: "SELECT length('Zürich'), upper('zürich'), 'Zürich' < 'Zz';"
printf 'ü\n' | od -An -tx1
