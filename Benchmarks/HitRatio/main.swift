// Placeholder: the hit-ratio tool for MemoryCacheLevel lands here with the memory level.
print("HitRatio: not there yet (it arrives with MemoryCacheLevel).")
