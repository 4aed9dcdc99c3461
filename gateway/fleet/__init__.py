"""On-prem fleet: engine signals, Geçit's own per-node view, prefix affinity and the node picker."""
