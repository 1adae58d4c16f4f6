# Bulk rename files with a loop and parameter expansion; no clobbering.
mkdir photos && cd photos
for n in 1 2 3 10; do touch "IMG_$n.JPG"; done
touch "Holiday Pic.JPG"
for f in *.JPG; do
  base=${f%.JPG}
  new=$(printf '%s' "$base" | tr 'A-Z ' 'a-z_').jpg
  mv -n -- "$f" "$new"
done
ls
ls | sort -t_ -k2,2n
for f in img_*.jpg; do n=${f#img_}; n=${n%.jpg}; printf '%s -> %03d\n' "$f" "$n"; done
