// BestiaryFetch: see docs/ARCHITECTURE.md
