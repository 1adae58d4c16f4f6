# A script with getopts, usage errors and shift, called several ways.
cat > tool.sh <<'S'
#!/bin/bash
usage() { echo "usage: tool.sh [-v] [-n N] FILE..." >&2; exit 2; }
verbose=0 n=1
while getopts "vn:" opt; do
  case $opt in
    v) verbose=1 ;;
    n) n=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
for f in "$@"; do
  [ "$verbose" = 1 ] && echo "== $f"
  head -n "$n" "$f"
done
S
chmod +x tool.sh
printf '1\n2\n3\n' > a; printf 'x\ny\n' > b
./tool.sh a
./tool.sh -v -n 2 a b
./tool.sh -x a 2>/dev/null; echo "bad option: $?"
./tool.sh 2>&1; echo "no files: $?"
