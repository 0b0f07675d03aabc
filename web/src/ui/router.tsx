import { createContext, useContext, useEffect, useState, type ReactNode, type MouseEvent } from 'react';

// A small history router: the dashboard's screens are a handful of paths, and the server sends
// index.html for every one of them (SPA fallback), so reloading any screen works.
type Loc = { path: string; search: URLSearchParams };
const RouterCtx = createContext<{ loc: Loc; navigate: (to: string) => void }>(null!);

function current(): Loc {
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search) };
}

export function Router({ children }: { children: ReactNode }) {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const on = () => setLoc(current());
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  const navigate = (to: string) => {
    window.history.pushState(null, '', to);
    setLoc(current());
  };
  return <RouterCtx.Provider value={{ loc, navigate }}>{children}</RouterCtx.Provider>;
}

export const useRouter = () => useContext(RouterCtx);

// Link is a real anchor (keyboard, open in new tab) that navigates without a reload.
export function Link({ to, children, ...rest }: { to: string; children: ReactNode; 'aria-label'?: string }) {
  const { navigate } = useRouter();
  const click = (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={click} {...rest}>{children}</a>;
}
