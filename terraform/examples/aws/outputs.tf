output "gateway_url" {
  description = "HTTPS URL of the gateway; point OpenAI clients at this + \"/v1\"."
  value       = module.gecit.gateway_url
}

output "alb_dns_name" {
  description = "ALB DNS name (create a CNAME/alias for domain_name if route53_zone_id is null)."
  value       = module.gecit.alb_dns_name
}

output "admin_key_secret_arn" {
  description = "Secrets Manager secret holding the admin key."
  value       = module.gecit.admin_key_secret_arn
}
