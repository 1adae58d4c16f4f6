# Pretty tables for a report: column -t on whitespace and on a separator, with printf fallbacks.
printf 'name size kind\nREADME.md 1200 doc\nsrc 4096 dir\nmain.py 88 code\n' > t.txt
column -t t.txt
printf 'a:bb:ccc\ndddd:e:f\n' | column -t -s:
printf '%-10s %6s\n' NAME SIZE; tail -n +2 t.txt | sort -k2,2n | while read -r n s _; do printf '%-10s %6d\n' "$n" "$s"; done
