// BestiarySync: see docs/ARCHITECTURE.md
