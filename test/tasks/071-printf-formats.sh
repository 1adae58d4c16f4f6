# printf as scripts use it for tables and padding: widths, precision, %s of many args, escapes.
printf '%-10s|%5s|%-3d|\n' name qty 7 apple 12 3
printf '%08.3f %+d %x %o %X %#x\n' 3.14159 5 255 8 255 255
printf '%s-%s\n' a b c d
printf '%5.2s|\n' abcdef
printf 'tab:\t|nl:\\n|pct:%%\n'
printf '%b\n' 'a\tb\x41'
printf '%c%c\n' hello world
printf '%d\n' 0x10 010 "'A"
printf '%10.4f|%-10.1e|\n' 2.5 31415.9
