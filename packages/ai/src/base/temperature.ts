/** The sampling temperature a turn asks for when the host chooses none (every wire format uses it). */
export const DEFAULT_TEMPERATURE = 0.2;
