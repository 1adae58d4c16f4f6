# tar: append, list with verbose types via a filter, extract with strip-components.
mkdir -p a/b
echo one > a/b/1.txt
tar cf arch.tar a/b/1.txt
echo two > a/2.txt
tar rf arch.tar a/2.txt
tar tf arch.tar
mkdir flat && tar xf arch.tar -C flat --strip-components=1
find flat | sort
tar xf arch.tar -O a/2.txt
tar tf nosuch.tar 2>/dev/null; echo "status $?"
