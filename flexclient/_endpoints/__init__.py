"""The endpoints: the kinds of endpoint method, the endpoint table (data), the checks of
parameters before anything is sent, pagination.
"""
