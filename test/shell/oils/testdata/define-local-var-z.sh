
local z=z
