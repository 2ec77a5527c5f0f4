Geolife trajectory
WGS 84
