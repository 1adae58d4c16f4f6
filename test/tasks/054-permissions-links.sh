# Files and metadata: chmod modes, symlinks and hard links, stat formats, test operators.
mkdir proj && cd proj
echo '#!/bin/sh' > run.sh; echo 'echo running' >> run.sh
chmod 750 run.sh; stat -c '%a %n' run.sh
./run.sh
chmod a-x run.sh; ./run.sh 2>/dev/null; echo "not executable: $?"
ln -s run.sh link.sh; ln run.sh hard.sh
[ -L link.sh ] && echo "link -> $(readlink link.sh)"
stat -c '%h' run.sh
echo extra >> hard.sh; tail -n 1 run.sh
rm run.sh; [ -e link.sh ] || echo "dangling"; cat hard.sh | wc -l
mkdir -p a/b/c && touch a/b/c/f && chmod 600 a/b/c/f && stat -c '%a' a/b/c/f
umask 027; touch newfile; stat -c '%a' newfile
