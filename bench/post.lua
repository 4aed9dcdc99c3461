-- wrk script: POST a chat completion. The body and the optional API key come from the
-- environment (bench/harness.py sets them), so wrk and the Python client send the same request.
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
local key = os.getenv("BENCH_KEY")
if key ~= nil and key ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. key
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
