// placeholder until the client helper writes it
