# A Python CLI with argparse: usage errors, exit codes, stdin input.
cat > wc.py <<'PY'
import argparse, sys
p = argparse.ArgumentParser(prog="wc.py")
p.add_argument("--lines", action="store_true")
p.add_argument("file", nargs="?")
a = p.parse_args()
data = open(a.file, encoding="utf-8").read() if a.file else sys.stdin.read()
if not data:
    print("empty input", file=sys.stderr)
    sys.exit(3)
print(data.count("\n") if a.lines else len(data.split()))
PY
printf 'one two\nthree\n' > in.txt
python3 wc.py in.txt
python3 wc.py --lines in.txt
printf 'a b c d' | python3 wc.py
python3 wc.py < /dev/null; echo "status $?"
python3 wc.py --bogus 2>/dev/null; echo "status $?"
