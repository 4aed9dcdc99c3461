"""GPU node profiles for the vLLM simulator: Llama-3.1-8B-Instruct in BF16 on one GPU.

Where the figures come from (all for meta-llama/Llama-3.1-8B-Instruct, BF16, vLLM defaults):

- Decode at batch 1 on an A100 40GB: ~75 tokens/s, ~77% of the memory-bandwidth roofline;
  8 concurrent streams give 6.6x the throughput of one (1,024-token prompts, 128 out).
  J. Musgrave, "vLLM throughput-latency sweep on NVIDIA A100",
  https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on
- H100 SXM about 2x an A100 in throughput and latency for 8B models with vLLM >= 0.6:
  Lambda, "vllm-benchmark" report (benchmark_v0.md, LambdaLabsML/vllm-benchmark);
  Ori, "Benchmarking Llama 3.1 8B Instruct on Nvidia H100 and A100 chips with vLLM",
  https://blog.ori.co/benchmarking-llama-3.1-8b-instruct-on-nvidia-h100-and-a100-chips-with-the-vllm-inferencing-engine
- L40S: 864 GB/s memory, ~183 TFLOPS dense BF16 (ai-hpc.github.io "Benchmarks for L40S x12");
  RTX 6000 Ada: 960 GB/s, ~182 TFLOPS dense BF16 (NVIDIA data sheet). Their decode speed is
  the A100 measurement's 77% roofline efficiency applied to their bandwidth (16.1 GB of
  weights read per step); prefill is 45% of dense BF16 peak at 2 x 8e9 FLOPs per token, the
  efficiency that reproduces the A100's ~120 ms TTFT for a 1,024-token prompt.

KV cache: 128 KiB per token (32 layers x 8 KV heads x 128 dims x K,V x 2 bytes), 16-token
blocks, `gpu_memory_utilization` 0.9 minus 16.1 GB of weights and ~1.5 GB of activations.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

KV_BYTES_PER_TOKEN = 131_072
WEIGHT_BYTES = 16.1e9
ROOFLINE_EFFICIENCY = 0.77  # measured decode efficiency on the A100 (source above)
PREFILL_MFU = 0.45
FLOPS_PER_TOKEN = 2 * 8.0e9


@dataclass(frozen=True, slots=True)
class GpuProfile:
    name: str
    gpu: str
    kv_blocks: int
    block_size: int
    base_step_s: float  # one decode step at batch 1: reading the weights once
    per_seq_s: float  # fixed extra per sequence in the batch (sampling, scheduling)
    kv_read_s_per_token: float  # reading one token of a sequence's KV cache per step
    prefill_tok_s: float  # prompt tokens per second when the step is prefill-bound
    max_num_seqs: int = 256
    max_batched_tokens: int = 8192
    max_model_len: int = 32_768
    hourly_cost_usd: Decimal = Decimal("0")

    @property
    def kv_tokens(self) -> int:
        return self.kv_blocks * self.block_size

    def single_stream_tok_s(self, context: int = 1024) -> float:
        return 1.0 / (self.base_step_s + self.per_seq_s + context * self.kv_read_s_per_token)


def _profile(
    name: str, gpu: str, mem_gb: float, bw_gb_s: float, bf16_tflops: float, hourly: str
) -> GpuProfile:
    eff_bw = bw_gb_s * 1e9 * ROOFLINE_EFFICIENCY
    kv_bytes = mem_gb * 1e9 * 0.9 - WEIGHT_BYTES - 1.5e9
    # per-sequence fixed cost: fitted on the A100 sweep (6.6x at 8 streams), scaled by
    # bandwidth as the rest of a decode step is
    return GpuProfile(
        name=name,
        gpu=gpu,
        kv_blocks=int(kv_bytes / KV_BYTES_PER_TOKEN / 16),
        block_size=16,
        base_step_s=WEIGHT_BYTES / eff_bw,
        per_seq_s=0.30e-3 * 1555 / bw_gb_s,
        kv_read_s_per_token=KV_BYTES_PER_TOKEN / eff_bw,
        prefill_tok_s=bf16_tflops * 1e12 * PREFILL_MFU / FLOPS_PER_TOKEN,
        hourly_cost_usd=Decimal(hourly),
    )


# hourly figures: typical on-demand rents of the same card (amortisation + power stand-in)
PROFILES = MappingProxyType(
    {
        "h100-8b": _profile("h100-8b", "H100 SXM 80GB", 80, 3350, 989, "2.50"),
        "a100-8b": _profile("a100-8b", "A100 40GB", 40, 1555, 312, "1.30"),
        "l40s-8b": _profile("l40s-8b", "L40S 48GB", 48, 864, 183, "1.00"),
        "rtx6000-8b": _profile("rtx6000-8b", "RTX 6000 Ada 48GB", 48, 960, 182, "0.90"),
    }
)
