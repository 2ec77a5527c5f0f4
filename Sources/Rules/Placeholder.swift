// Placeholder; the Rules module replaces it.
