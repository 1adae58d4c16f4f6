# Arithmetic and fixed dates: shell arithmetic, bc for decimals, date on fixed epochs in UTC.
echo $(( 2**20 )) $(( 17 / 5 )) $(( 17 % 5 )) $(( -7 / 2 )) $(( 0x1F )) $(( 8#17 ))
echo 'scale=4; 10/3' | bc
echo '2^64' | bc
echo 'sqrt(2)' | bc -l | cut -c1-8
TZ=UTC date -d @0 '+%Y-%m-%d %H:%M:%S'
TZ=UTC date -d '2024-02-28 +1 day' '+%F %A'
TZ=UTC date -d @1700000000 -u '+%s %j %U'
printf '%.2f %5.1f %e\n' 3.14159 2.25 12345.678
seq -f '%03g' 1 3
