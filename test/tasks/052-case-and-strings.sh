# String handling a script would do: case patterns, prefix/suffix stripping, replacement, substrings.
for f in report.tar.gz image.PNG notes.txt Makefile .bashrc; do
  case $f in
    *.tar.gz) kind=tarball ;;
    *.[Pp][Nn][Gg]) kind=image ;;
    .*) kind=hidden ;;
    *.*) kind="ext ${f##*.}" ;;
    *) kind=plain ;;
  esac
  echo "$f: $kind"
done
p=/usr/local/lib/python3.11/site-packages
echo "${p%/*}" "${p##*/}" "${p#/usr/}" "${p//\//:}"
v=v1.22.3; IFS=. read -r maj min patch <<< "${v#v}"; echo "$maj $min $((patch + 1))"
s="  padded  "; t="${s#"${s%%[![:space:]]*}"}"; echo "[${t%"${t##*[![:space:]]}"}]"
echo "${#p}" "${p:5:5}" "${p: -8}"
printf '%s\n' "${p^^}" | cut -c1-10
