# Temporary files and directories with mktemp, cleaned up by a trap; names are never printed.
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
[ -d "$tmpd" ] && echo "temp dir exists"
f=$(mktemp "$tmpd/data.XXXXXX")
case $f in "$tmpd"/data.??????) echo "template honoured" ;; esac
seq 3 > "$f"; wc -l < "$f"
g=$(mktemp); echo tmp > "$g"; cat "$g"; rm "$g"
[ -e "$g" ] || echo "removed"
ls "$tmpd" | wc -l
