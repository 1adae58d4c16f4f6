# Node failure modes a script meets: uncaught exception status, unhandled rejection, process.exit codes.
node -e 'throw new Error("boom")' 2>/dev/null; echo "throw: $?"
node -e 'Promise.reject(new Error("nope"))' 2>/dev/null; echo "rejection: $?"
node -e 'process.exit(42)'; echo "exit: $?"
node -e 'process.exitCode = 3; console.log("set")'; echo "exitCode: $?"
node -e 'console.log(process.argv.slice(2).join("+"))' a 'b c' d
echo '{"a":[1,2,3]}' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).a.length))'
node nosuchfile.js 2>/dev/null; echo "missing script: $?"
