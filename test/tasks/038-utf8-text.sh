# Non-ASCII (UTF-8) text: counting characters vs bytes, case mapping, sorting, cut and awk on multibyte data.
cat > names.txt <<'T'
Zoë
Ångström
émile
Łukasz
niño
日本語
T
wc -l -c -m < names.txt
while IFS= read -r n; do printf '%s %d\n' "$n" "${#n}"; done < names.txt
awk '{ print length($0), $0 }' names.txt
cut -c1-2 names.txt
grep -c 'ñ' names.txt
printf 'héllo wörld\n' | tr a-z A-Z
printf 'straße\n' | sed 's/ß/ss/'
s='naïve café'; echo "${s^^}" "${s:2:3}"
