# Persistence across invocations: a Python module written once, its bytecode cache and data used later.
mkdir -p pkg
cat > pkg/__init__.py <<'PY'
PY
cat > pkg/words.py <<'PY'
import json, pathlib
STORE = pathlib.Path("words.json")
def add(*ws):
    data = json.loads(STORE.read_text()) if STORE.exists() else []
    data.extend(ws)
    STORE.write_text(json.dumps(sorted(set(data)), ensure_ascii=False))
    return len(data)
def top():
    return json.loads(STORE.read_text())
PY
python3 -c 'import pkg.words as w; print(w.add("kiwi", "äpfel", "fig"))'
#--- next invocation ---
python3 -c 'import pkg.words as w; print(w.add("fig", "date")); print(w.top())'
ls pkg/__pycache__ | sed 's/\.cpython-[0-9]*//' | sort
#--- next invocation ---
python3 - <<'PY'
import pkg.words as w
print(", ".join(w.top()))
print(sum(len(x) for x in w.top()))
PY
