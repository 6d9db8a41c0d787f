-- wrk script for soak.py: GET /users/<id> for ids drawn uniformly from 1..N, N being
-- the first argument after `--` (20,000 by default).
local users = 20000

function init(args)
  if args[1] then users = tonumber(args[1]) end
  math.randomseed(os.time() + math.floor(os.clock() * 1000000))
end

request = function()
  return wrk.format("GET", "/users/" .. math.random(1, users))
end
