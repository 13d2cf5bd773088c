// BestiaryPackFormat: see docs/ARCHITECTURE.md
