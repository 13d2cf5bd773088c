// BestiaryPacks: see docs/ARCHITECTURE.md
