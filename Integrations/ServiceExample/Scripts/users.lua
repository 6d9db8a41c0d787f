-- wrk script: GET /users/<id> for ids drawn uniformly from 1..1000.
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/users/" .. math.random(1, 1000))
end
