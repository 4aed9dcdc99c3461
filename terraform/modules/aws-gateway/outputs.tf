output "gateway_url" {
  description = "HTTPS URL of the gateway (OpenAI base URL = this + \"/v1\")."
  value       = "https://${var.domain_name}"
}

output "alb_dns_name" {
  description = "DNS name of the ALB; point domain_name at it when route53_zone_id is null."
  value       = aws_lb.gateway.dns_name
}

output "database_endpoint" {
  description = "Private endpoint of the RDS PostgreSQL instance (not publicly accessible)."
  value       = aws_db_instance.gecit.endpoint
}

output "task_role_arn" {
  description = "IAM role of the gateway tasks (Bedrock invoke on bedrock_model_arns only)."
  value       = aws_iam_role.task.arn
}

output "admin_key_secret_arn" {
  description = "Secrets Manager secret holding the admin key."
  value       = aws_secretsmanager_secret.admin_key.arn
}

output "log_group_name" {
  description = "CloudWatch Logs group of the gateway."
  value       = aws_cloudwatch_log_group.gateway.name
}
