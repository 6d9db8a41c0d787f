-- wrk script of the throughput benchmarks: cycles through PREFIX0 ... PREFIX(COUNT-1),
-- each of the THREADS threads starting at another offset.
--   wrk -t2 ... -s cycle-urls.lua http://127.0.0.1:PORT -- /item/ 1000 2
local requests = {}
local i = 0
local count = 0
local threads = 0

function setup(thread)
  thread:set("index", threads)
  threads = threads + 1
end

function init(args)
  local prefix, n, total = args[1], tonumber(args[2]), tonumber(args[3])
  for k = 0, n - 1 do requests[k] = wrk.format("GET", prefix .. k) end
  count = n
  i = (index or 0) * math.floor(n / total)
end

function request()
  local r = requests[i]
  i = (i + 1) % count
  return r
end
