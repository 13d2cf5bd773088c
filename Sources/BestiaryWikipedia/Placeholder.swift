// BestiaryWikipedia: see docs/ARCHITECTURE.md
