@_exported import PiedPiper
