"""Authentication: access tokens and the stores that keep them (memory, file, cookie), and
what a stored token allows (`auth_info()`).
"""
