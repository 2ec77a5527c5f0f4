// Placeholder; the Places module replaces it.
