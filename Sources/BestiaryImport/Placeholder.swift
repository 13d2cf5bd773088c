// BestiaryImport: see docs/ARCHITECTURE.md
