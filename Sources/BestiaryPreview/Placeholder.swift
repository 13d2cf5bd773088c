// BestiaryPreview: see docs/ARCHITECTURE.md
