"""fantan-table: an automated banker for piecepack Fan Tan."""

__version__ = "0.1.0"
