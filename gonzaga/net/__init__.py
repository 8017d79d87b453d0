"""Online play (issue 14): the protocol, the server, the client."""
