// The `v8` module: heap statistics, from the engine where it says (Chromium's
// performance.memory), else Node's defaults (npm's arborist sizes its
// packument cache from heap_size_limit). No serializer or heap snapshots.

interface HeapMemory { usedJSHeapSize: number; totalJSHeapSize: number; jsHeapSizeLimit: number }

export function makeV8(): Record<string, unknown> {
  const mem = (): Partial<HeapMemory> => (performance as unknown as { memory?: HeapMemory }).memory ?? {};
  const getHeapStatistics = () => {
    const m = mem();
    const used = m.usedJSHeapSize ?? 4_000_000;
    const total = m.totalJSHeapSize ?? 8_000_000;
    // Node's default old-space limit on 64-bit hosts when the engine does not say.
    const limit = m.jsHeapSizeLimit ?? 4_345_298_944;
    return {
      total_heap_size: total, total_heap_size_executable: 0, total_physical_size: total, total_available_size: Math.max(0, limit - used),
      used_heap_size: used, heap_size_limit: limit, malloced_memory: 0, peak_malloced_memory: 0, does_zap_garbage: 0,
      number_of_native_contexts: 1, number_of_detached_contexts: 0, total_global_handles_size: 0, used_global_handles_size: 0, external_memory: 0,
    };
  };
  return {
    getHeapStatistics,
    getHeapSpaceStatistics: () => [],
    getHeapCodeStatistics: () => ({ code_and_metadata_size: 0, bytecode_and_metadata_size: 0, external_script_source_size: 0, cpu_profiler_metadata_size: 0 }),
    cachedDataVersionTag: () => 0,
    setFlagsFromString: () => undefined,
  };
}
