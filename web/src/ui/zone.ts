import { createContext, useContext } from 'react';
import { defaultZone } from './format';

// ZoneContext carries the tenant's time zone (Branding.timeZone, on the profile's tenant), which
// the session provides; every time on a screen is shown in it, with its name.
export const ZoneContext = createContext<string>(defaultZone);

// useZone is the tenant's time zone (Africa/Lagos until the tenant sets one).
export const useZone = () => useContext(ZoneContext);
