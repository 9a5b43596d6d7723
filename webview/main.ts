// Bootstraps the chat webview: styles, the host channel, the store mirror and the app element.
import { SubchatsApp } from './components/subchats-app';
import { connectToHost } from './host';
import { ChatStore } from './state/chatStore';
import { keepReadableAcrossThemes } from './lib/readableText';
import { adoptChatStyles } from './styles';
import { useHostTranslations } from './l10n';

useHostTranslations(document);
adoptChatStyles(document);
const app = new SubchatsApp();
app.store = new ChatStore();
app.channel = connectToHost();
document.body.append(app);
keepReadableAcrossThemes(document);
