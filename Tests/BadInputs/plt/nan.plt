Geolife trajectory
WGS 84
Altitude is in Feet
Reserved 3
0,2,255,My Track,0,0,2,8421376
0
NaN,NaN,0,492,NaN,2008-10-23,02:53:04
