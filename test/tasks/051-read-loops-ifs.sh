# Reading structured text: while read with IFS, mapfile, read -a, and a tab-separated file.
printf 'root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:User Name:/home/user:/bin/sh\n' > passwd
while IFS=: read -r name _ uid _ gecos home shell; do
  printf '%-6s %5d %-10s %s\n' "$name" "$uid" "$shell" "$gecos"
done < passwd
mapfile -t lines < passwd
echo "${#lines[@]} lines, last shell: ${lines[1]##*:}"
printf 'a\tb c\td\n' > t.tsv
IFS=$'\t' read -r -a cols < t.tsv
echo "${#cols[@]} cols: [${cols[1]}]"
printf 'no newline at end' | { read -r x; echo "read status $? [$x]"; }
