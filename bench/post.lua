-- wrk script: POST a chat completion. The body and the optional API key come from the
-- environment (bench/harness.py sets them), so wrk and the Python client send the same request.
-- The marker @@N@@ in the body becomes a per-request letter code (as bench/loadgen.py does), so
-- no two requests carry the same user prompt: what the gateway remembers per exact text helps
-- only the repeated system message, never the prompt being measured.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local key = os.getenv("BENCH_KEY")
if key ~= nil and key ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. key
end

-- extra headers, one "name: value" per line (e.g. the Portkey gateway's routing headers)
local extra = os.getenv("BENCH_HEADERS")
if extra ~= nil then
  for line in string.gmatch(extra, "[^\n]+") do
    local name, value = string.match(line, "^([^:]+):%s*(.*)$")
    if name ~= nil then
      wrk.headers[name] = value
    end
  end
end

local template = os.getenv("BENCH_BODY")
local head, tail = template, nil
local at = string.find(template, "@@N@@", 1, true)
if at ~= nil then
  head = string.sub(template, 1, at - 1)
  tail = string.sub(template, at + 5)
end
local letters = "abcdefghijklmnopqrstuvwxyz"
local counter = 0

local function tag(n)
  local out = ""
  repeat
    local r = n % 26
    out = out .. string.sub(letters, r + 1, r + 1)
    n = math.floor(n / 26)
  until n == 0
  return out
end

request = function()
  local body = head
  if tail ~= nil then
    body = head .. tag(counter) .. tail
    counter = counter + 1
  end
  return wrk.format(nil, nil, nil, body)
end

local non200 = 0
response = function(status, headers, body)
  if status ~= 200 then
    non200 = non200 + 1
  end
end

done = function(summary, latency, requests)
  -- machine-readable line for the harness (latencies in microseconds)
  io.write(string.format("BENCH_JSON {\"requests\":%d,\"duration_us\":%d,\"errors\":%d," ..
    "\"p50_us\":%d,\"p99_us\":%d,\"max_us\":%d}\n",
    summary.requests, summary.duration,
    summary.errors.connect + summary.errors.read + summary.errors.write +
    summary.errors.status + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
