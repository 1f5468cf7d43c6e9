import './csp';
import './app/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles/global.css';
import './shared/theme/theme.css';
import { App } from './app/App';
import { installDevtoolsGuard } from './app/devtools';
import { loadToken } from './shared/cookie';

installDevtoolsGuard();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The token cookie is encrypted: decrypt it once so that signing stays synchronous afterwards.
void loadToken()
  .catch(() => '')
  .finally(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
