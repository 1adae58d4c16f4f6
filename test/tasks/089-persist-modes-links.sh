# Persistence across invocations: modes, symlinks, hard links and modification times survive.
mkdir -p bin data
printf '#!/bin/sh\necho "tool: $*"\n' > bin/tool
chmod 750 bin/tool
ln -s ../bin/tool data/tool-link
printf 'payload\n' > data/a
ln data/a data/b
chmod 640 data/a
touch -d '2023-07-08 09:10:11 UTC' data/a
ls -l data | awk 'NR>1 {print $1, $2, $NF}'
#--- next invocation ---
./bin/tool one two
./data/tool-link three
stat -c '%a %h %n' bin/tool data/a data/b
readlink data/tool-link
TZ=UTC date -r data/a '+%F %T'
echo more >> data/b
#--- next invocation ---
cat data/a
[ data/a -ef data/b ] && echo same inode
find . -type l -printf '%p -> %l\n'
find . -newer bin/tool -type f | sort
