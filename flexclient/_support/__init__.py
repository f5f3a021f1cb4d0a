"""Helpers every layer may use: frozen records, type narrowing, JSON reading, lazy
imports, small files, optional packages, suggestions. They import nothing of flexclient
but the errors.
"""
